/** Path of the offline AMP validator (validator_wasm.js), fetched from the npm registry on first use. */
export function validatorPath(): string
