// What the kit's functions (verifySeller, exploreSeller, loadSeller, startStateServer) throw
// instead of printing and exiting: bad input names the option at fault, and a seller that
// cannot be reached at start is its own error. The commands turn both into exit 2.

/** Bad input: `option` is the option's name as the function takes it (e.g. 'stateMap'). */
export class KitInputError extends Error {
  override name = 'KitInputError';
  /** What is wrong, without the option's name (the message leads with it). */
  readonly detail: string;
  constructor(
    readonly option: string,
    detail: string,
    options?: ErrorOptions,
  ) {
    super(`${option}: ${detail}`, options);
    this.detail = detail;
  }
}

/** The seller's host and port do not take a connection at start: nothing was sent. */
export class SellerUnreachableError extends Error {
  override name = 'SellerUnreachableError';
  constructor(
    readonly sellerUrl: string,
    /** Why, e.g. "127.0.0.1:1 cannot be reached (ECONNREFUSED)". */
    readonly reason: string,
  ) {
    super(`the seller at ${sellerUrl} cannot be reached: ${reason}`);
  }
}

/** The seller answers, but not in the protocol its URL names: nothing was sent. */
export class SellerProtocolError extends SellerUnreachableError {
  override name = 'SellerProtocolError';
  constructor(
    sellerUrl: string,
    /** What its port speaks: plain HTTP behind an https:// URL, TLS behind an http:// one. */
    readonly answers: 'plain HTTP' | 'TLS',
    /** The URL that speaks it: the other scheme, the same host and port. */
    readonly useUrl: string,
  ) {
    super(sellerUrl, `it answers ${answers}, not ${answers === 'TLS' ? 'plain HTTP' : 'TLS'}`);
    this.message = `${sellerUrl} answers ${answers}, not ${answers === 'TLS' ? 'plain HTTP' : 'TLS'}: use ${useUrl}`;
  }
}

/** Runs `read`, turning the errors of bad input it may throw (by class) into a KitInputError naming `option`. */
export async function asInputError<T>(
  option: string,
  read: () => T | Promise<T>,
  inputErrors: readonly (abstract new (...args: never[]) => Error)[],
): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (inputErrors.some((kind) => error instanceof kind))
      throw new KitInputError(option, (error as Error).message, { cause: error });
    throw error;
  }
}
