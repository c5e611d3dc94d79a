/**
 * Compiles a query's clause tree into SQL: for each clause, a test of whether a product matches
 * and an expression of its score, over the search index (search_docs d and the facts tables). The
 * leaves are leaf-clauses.ts and text-match.ts; this file composes them (bool, function_score).
 */
import type { QueryNode } from '../dsl'
import { compileExists, compilePhrase, compilePrefix, compileRange, compileTerms } from './leaf-clauses'
import {
  balanced,
  bin,
  bound,
  type Compiled,
  type Compiler,
  caseWhen,
  fnCall,
  leaf,
  ONE,
  over,
  param,
  share,
  type X,
  ZERO,
} from './sql-expr'
import { compileMatch } from './text-match'

/** A clause compiled, kept within the height and size the enclosing clauses can build on. */
export function compile(node: QueryNode, c: Compiler): Compiled {
  const out = bound(c, compileNode(node, c))
  return c.byBits?.nodes.has(node) ? perBits(out, c.byBits.cols) : out
}

/** Any reference to a row's column other than its resolved bits (`d.cm`), or to a joined table. */
const ROW_READ = /\bd\.(?!cm\b)|\b[a-z]+\d+\./

/**
 * A clause whose test and score read only the product's resolved bits, computed once per distinct
 * bits value (the statement's `kb` table) and read from there.
 */
function perBits(out: Compiled, cols: string[]): Compiled {
  if (ROW_READ.test(out.cond.sql) || ROW_READ.test(out.score.sql)) return out
  const cond = `kb${cols.length}`
  const score = `kb${cols.length + 1}`
  cols.push(`${out.cond.sql} AS ${cond}`, `${out.score.sql} AS ${score}`)
  return { cond: leaf(`d.${cond}`, 2), score: leaf(`d.${score}`, 2) }
}

function compileNode(node: QueryNode, c: Compiler): Compiled {
  switch (node.kind) {
    case 'match_all':
      return { cond: ONE, score: param(c, node.boost) }
    case 'match_none':
      return { cond: ZERO, score: ZERO }
    case 'terms':
      return compileTerms(node, c)
    case 'range':
      return compileRange(node, c)
    case 'exists':
      return compileExists(node, c)
    case 'prefix':
      return compilePrefix(node, c)
    case 'match':
      return compileMatch(node, c)
    case 'phrase':
      return compilePhrase(node, c)
    case 'bool': {
      const conds: X[] = []
      const scores: X[] = []
      for (const ch of node.must) {
        const x = compile(ch, c)
        conds.push(x.cond)
        scores.push(x.score)
      }
      for (const ch of node.filter) conds.push(compile(ch, c).cond)
      for (const ch of node.mustNot) {
        const x = compile(ch, c).cond
        conds.push(over(`NOT (${x.sql})`, [x]))
      }
      const msm = node.minimumShouldMatch
      for (const ch of node.should) {
        const x = compile(ch, c)
        // With a minimum_should_match the clause's test is read twice (score and count).
        const cond = msm > 0 ? share(c, x.cond) : x.cond
        scores.push(caseWhen(cond, x.score, ZERO))
        if (msm > 0) conds.push(cond)
      }
      // The should tests were pushed last: fold them into one OR / count test.
      if (msm > 0) {
        const tests = conds.splice(conds.length - node.should.length)
        conds.push(
          msm === 1
            ? balanced(tests, 'OR', ZERO)
            : bin(
                balanced(
                  tests.map((t) => caseWhen(t, ONE, ZERO)),
                  '+',
                  ZERO,
                ),
                '>=',
                param(c, msm),
              ),
        )
      }
      return {
        cond: balanced(conds, 'AND', ONE),
        score: bin(param(c, node.boost), '*', balanced(scores, '+', ZERO)),
      }
    }
    case 'function_score':
      return compileFunctionScore(node, c)
  }
}

function compileFunctionScore(node: Extract<QueryNode, { kind: 'function_score' }>, c: Compiler): Compiled {
  const q = compile(node.query, c)
  // Modes other than multiply and first read each function's value more than once.
  const repeated = node.scoreMode !== 'multiply' && node.scoreMode !== 'first'
  const fns = node.functions.map((fn) => {
    const w = param(c, fn.weight)
    if (!fn.filter) return w
    const x = caseWhen(compile(fn.filter, c).cond, w)
    return repeated ? share(c, x) : x
  })
  let f: X
  if (fns.length === 0) f = ONE
  else {
    const anyMatched = () =>
      balanced(
        fns.map((x) => over(`${x.sql} IS NOT NULL`, [x])),
        'OR',
        ZERO,
      )
    const coalesced = (fallback: string) => fns.map((x) => over(`COALESCE(${x.sql}, ${fallback})`, [x]))
    const ifAny = (then: X) => caseWhen(anyMatched(), then, ONE)
    switch (node.scoreMode) {
      case 'multiply':
        f = balanced(coalesced('1'), '*', ONE)
        break
      case 'sum':
        f = ifAny(balanced(coalesced('0'), '+', ZERO))
        break
      case 'avg':
        f = ifAny(
          bin(
            bin(balanced(coalesced('0'), '+', ZERO), '*', leaf('1.0', 1)),
            '/',
            balanced(
              fns.map((x) => over(`(${x.sql} IS NOT NULL)`, [x])),
              '+',
              ZERO,
            ),
          ),
        )
        break
      case 'first':
        f = fnCall('COALESCE', [...fns, ONE])
        break
      case 'max':
        f = ifAny(fnCall('MAX', [...coalesced('-1e308'), leaf('-1e308', 1)]))
        break
      case 'min':
        f = ifAny(fnCall('MIN', [...coalesced('1e308'), leaf('1e308', 1)]))
        break
    }
  }
  if (node.maxBoost < Number.MAX_VALUE) f = fnCall('MIN', [f, param(c, node.maxBoost)])
  const qs = q.score
  let s: X
  switch (node.boostMode) {
    case 'multiply':
      s = bin(qs, '*', f)
      break
    case 'replace':
      s = f
      break
    case 'sum':
      s = bin(qs, '+', f)
      break
    case 'avg':
      s = bin(bin(qs, '+', f), '/', leaf('2.0', 1))
      break
    case 'max':
      s = fnCall('MAX', [qs, f])
      break
    case 'min':
      s = fnCall('MIN', [qs, f])
      break
  }
  let score = bin(param(c, node.boost), '*', s)
  if (node.minScore === null) return { cond: q.cond, score }
  // The score is read twice (the test and the value). A score that is not a number (NULL in SQL,
  // NaN in the in-memory backend) passes a min_score in both.
  score = share(c, score)
  const below = bin(score, '<', param(c, node.minScore))
  return { cond: bin(q.cond, 'AND', over(`NOT COALESCE(${below.sql}, 0)`, [below], 2)), score }
}
