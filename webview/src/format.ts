/** Display formatting for the dashboard: exact decimal strings from core, shortened only for labels. */
import { binPriceHuman, formatUnits } from '../../core/dlmm/bins';

/** Base units (decimal string or bigint) to a human amount, exact. */
export function human(amount: string | bigint, decimals: number): string {
  return formatUnits(typeof amount === 'bigint' ? amount : BigInt(amount), decimals);
}

/** Signed base units to a human amount with an explicit sign. */
export function humanSigned(amount: bigint, decimals: number): string {
  if (amount < 0n) return '−' + formatUnits(-amount, decimals);
  return '+' + formatUnits(amount, decimals);
}

/** Raw bin price to a human price (token Y per token X), exact to 8 fraction digits. */
export function priceHuman(price: string | bigint, decX: number, decY: number): string {
  return binPriceHuman(typeof price === 'bigint' ? price : BigInt(price), decX, decY, 8);
}

/** A label-length version of a decimal string: about `digits` significant digits, no exponent. */
export function shortDecimal(text: string, digits = 6): string {
  const [whole = '0', frac = ''] = text.split('.');
  const w = whole.replace(/^-/, '');
  if (w.length >= digits) return (text.startsWith('-') ? '-' : '') + w.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  if (w !== '0') return `${whole}${frac ? '.' + frac.slice(0, digits - w.length) : ''}`.replace(/\.$/, '');
  const lead = /^0*/.exec(frac)?.[0].length ?? 0;
  const cut = frac.slice(0, lead + digits).replace(/0+$/, '');
  return cut ? `${whole}.${cut}` : whole;
}

/** Basis points to a percent label. */
export function bpsLabel(bps: number): string {
  return `${(bps / 100).toFixed(2)}%`;
}
