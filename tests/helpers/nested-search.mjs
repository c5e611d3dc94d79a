// The deepest query the search limits allow, shared by the benches and the cost-budget tests:
// `function_score` with a `min_score` and a summing weight alternating with `bool.should` counted
// towards a minimum, so every level reads the one below it twice.

/** A query nested `depth` levels deep around a colour test (depth ≥ 2). */
export function nestedChain(depth) {
  let chain = { terms: { color: [49, 50] } }
  for (let level = 2; level < depth; level += 1) {
    chain =
      level % 2
        ? {
            bool: {
              should: [chain, { range: { final_price: { gte: level * 100 } } }],
              minimum_should_match: 1,
            },
          }
        : {
            function_score: {
              query: chain,
              min_score: 0.1,
              score_mode: 'sum',
              functions: [{ filter: { terms: { size: [level] } }, weight: 2 }],
            },
          }
  }
  return chain
}
