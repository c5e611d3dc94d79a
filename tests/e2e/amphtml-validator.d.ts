declare module 'amphtml-validator' {
  interface ValidationError {
    severity: string
    line: number
    col: number
    message: string
    code: string
  }
  interface ValidationResult {
    status: 'PASS' | 'FAIL' | 'UNKNOWN'
    errors: ValidationError[]
  }
  interface Validator {
    validateString(html: string): ValidationResult
  }
  const amphtmlValidator: { getInstance(validatorJs?: string): Promise<Validator> }
  export default amphtmlValidator
}
