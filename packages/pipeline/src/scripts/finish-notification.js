"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FINISH_NOTIFICATION_CODES = void 0;
exports.callFinishNotification = callFinishNotification;
const core_1 = require("@notify/core");
const script_reply_1 = require("./script-reply");
/** finish-notification-1.lua's return codes (its header lists the same). */
exports.FINISH_NOTIFICATION_CODES = { ended: 0, stale: 1, missing: 4 };
async function callFinishNotification(command, a) {
    const reply = await command((0, core_1.notificationKey)(a.id), a.fromStep, a.status, a.reason, a.now, JSON.stringify(a.skips ?? []));
    return { code: (0, script_reply_1.decodeReply)('finish-notification-1', exports.FINISH_NOTIFICATION_CODES, reply).code };
}
//# sourceMappingURL=finish-notification.js.map