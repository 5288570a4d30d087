/** The name of the package's bin, which its build and its README name too. */
export const BIN = "media-service-mcp";
