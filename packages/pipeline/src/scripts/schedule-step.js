"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SCHEDULE_STEP_CODES = void 0;
exports.callScheduleStep = callScheduleStep;
const core_1 = require("@notify/core");
const script_reply_1 = require("./script-reply");
/** schedule-step-1.lua's return codes (its header lists the same). */
exports.SCHEDULE_STEP_CODES = { scheduled: 0, stale: 1, missing: 4 };
async function callScheduleStep(command, a) {
    const reply = await command((0, core_1.notificationKey)(a.id), a.fromStep, a.fromStep + 1, a.channel, a.kind, JSON.stringify(a.skips), a.status);
    return { code: (0, script_reply_1.decodeReply)('schedule-step-1', exports.SCHEDULE_STEP_CODES, reply).code };
}
//# sourceMappingURL=schedule-step.js.map