/** The package version, shown by `gleaner --version`. */
export const version = "0.1.0"
