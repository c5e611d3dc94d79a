/** What the shopper configured on a line, [{label, value}], as a small list (nothing when empty). */
export function OptionList({
  options,
}: {
  options: readonly { label: string; value: string }[] | undefined
}) {
  if (!options?.length) return null
  return (
    <ul className="line-options" data-testid="line-options">
      {options.map((o, i) => (
        // Labels repeat (a grouped product's pieces), so the position is part of the key.
        // biome-ignore lint/suspicious/noArrayIndexKey: the list is static for one render
        <li key={`${i}:${o.label}`}>
          {o.label}: {o.value}
        </li>
      ))}
    </ul>
  )
}
