"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.INTAKE_CODES = void 0;
exports.callIntake = callIntake;
const core_1 = require("@notify/core");
const script_reply_1 = require("./script-reply");
/** intake-2.lua's return codes (its header lists the same). */
exports.INTAKE_CODES = { created: 0, duplicate: 1, conflict: 2 };
async function callIntake(command, a) {
    const reply = await command((0, core_1.notificationKey)(a.id), (0, core_1.pendingIntakeKey)(), a.id, a.fingerprint, a.tenant, a.eventId, a.recipientId, a.rh, a.priority, JSON.stringify(a.plan), a.firstChannel, JSON.stringify(a.content), JSON.stringify(a.addresses), a.now, a.recordTtlSeconds, JSON.stringify(a.skips), JSON.stringify(a.addressHashes));
    const { code, detail } = (0, script_reply_1.decodeReply)('intake-2', exports.INTAKE_CODES, reply);
    if (code !== 'duplicate')
        return { code };
    const status = (0, script_reply_1.text)(detail[0]);
    return { code, status, firstChannel: status === 'accepted' && detail[1] ? (0, script_reply_1.text)(detail[1]) : undefined };
}
//# sourceMappingURL=intake.js.map