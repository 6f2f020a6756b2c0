"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FINISH_ATTEMPT_CODES = void 0;
exports.callFinishAttempt = callFinishAttempt;
const core_1 = require("@notify/core");
const script_reply_1 = require("./script-reply");
/** finish-attempt-2.lua's return codes (its header lists the same). */
exports.FINISH_ATTEMPT_CODES = { recorded: 0, stale: 1, missing: 4 };
async function callFinishAttempt(command, a) {
    const reply = await command((0, core_1.notificationKey)(a.id), (0, core_1.suppressionKey)(a.rh, a.channel), a.step, a.outcome, a.errorClass ?? '', a.message ?? '', a.now, a.durationMs, a.suppressionTtlSeconds, a.spent ? 1 : 0);
    const { code, detail } = (0, script_reply_1.decodeReply)('finish-attempt-2', exports.FINISH_ATTEMPT_CODES, reply);
    if (code !== 'recorded')
        return { code };
    return { code, acceptedAt: Number(detail[0]), calls: Number(detail[1]) };
}
//# sourceMappingURL=finish-attempt.js.map