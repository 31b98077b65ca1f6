/**
 * SIP-030 error codes and what they mean for the person reading the answer. Shared by the page script
 * (bundled into the browser), the CLI and the editor, so it imports nothing.
 */
export const WALLET_ERROR_MEANINGS: Readonly<Record<number, string>> = {
  [-32000]: 'rejected in the wallet',
  [-32001]: "the wallet's address is not the requested one",
  [-32002]: 'the wallet denied access to this method',
  [-32600]: 'the wallet called the request invalid',
  [-32601]: 'the wallet does not offer this method',
  [-32602]: 'the wallet refused the parameters',
  [-32603]: "the wallet's internal error",
  [-31000]: 'unknown error outside the wallet',
  [-31001]: 'cancelled',
};

/** "rejected in the wallet (-32000)", or the code alone when SIP-030 does not name it. */
export function walletErrorText(code: number): string {
  const meaning = WALLET_ERROR_MEANINGS[code];
  return meaning ? `${meaning} (${code})` : `wallet error ${code}`;
}
