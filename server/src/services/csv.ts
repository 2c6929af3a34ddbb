/**
 * The console's CSV files (the returns' export, the audit log's): one writer, so that every file
 * is guarded alike.
 */
import { stringify } from 'csv-stringify'

/**
 * A CSV writer: a header row of `columns`, and any cell a spreadsheet would run as a formula (=,
 * +, -, @, a tab or a carriage return first: a comment or a name someone typed) written as text;
 * UTF-8 with a byte-order mark, so that a spreadsheet reads its accents.
 */
export const csvWriter = (columns: readonly string[]) =>
  stringify({ header: true, columns: [...columns], escape_formulas: true, bom: true })
