"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.BEGIN_ATTEMPT_CODES = void 0;
exports.callBeginAttempt = callBeginAttempt;
const core_1 = require("@notify/core");
const script_reply_1 = require("./script-reply");
/** begin-attempt-3.lua's return codes (its header lists the same). */
exports.BEGIN_ATTEMPT_CODES = { proceed: 0, terminal: 1, stale: 2, crashed: 3, missing: 4, suppressed: 5, budget: 6 };
async function callBeginAttempt(command, a) {
    const reply = await command((0, core_1.notificationKey)(a.id), (0, core_1.suppressionKey)(a.rh, a.channel), (0, core_1.pendingIntakeKey)(), a.step, a.channel, a.now, a.budget, a.id);
    const { code, detail } = (0, script_reply_1.decodeReply)('begin-attempt-3', exports.BEGIN_ATTEMPT_CODES, reply);
    if (code !== 'proceed')
        return { code };
    return { code, contentJson: (0, script_reply_1.text)(detail[0]), addressesJson: (0, script_reply_1.text)(detail[1]) };
}
//# sourceMappingURL=begin-attempt.js.map