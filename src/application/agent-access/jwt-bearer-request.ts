/** The jwt-bearer grant's request (RFC 7523): the assertion, and the client and scope it asks for. */
export interface JwtBearerRequest {
  readonly assertion: string;
  readonly clientId?: string | undefined;
  readonly scope?: string | undefined;
}
