import { join } from 'node:path';
import { APPLY_RECEIPT_CODES, PIPELINE_LUA_DIR, RECEIPT_SCRIPTS } from '@notify/pipeline';
import { headerReturnCodes } from '../pipeline/scripts/lua-header';

it('apply-receipt-4.lua lists in its header exactly the return codes APPLY_RECEIPT_CODES names', () => {
  expect(RECEIPT_SCRIPTS).toEqual(['apply-receipt-4']);
  expect(headerReturnCodes(join(PIPELINE_LUA_DIR, 'apply-receipt-4.lua'))).toEqual({ ...APPLY_RECEIPT_CODES });
});
