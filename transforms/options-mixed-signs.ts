// Upgrade note "Misc: Options with a mix of +/- and bare options is a syntax error".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const optionsMixedSigns: Transform = {
  id: 'options-mixed-signs',
  title: 'Fix Options lines that mix +/- and bare options',
  row: 'Misc: Options with a mix of +/- and bare options is a syntax error',
  order: 520,
};
