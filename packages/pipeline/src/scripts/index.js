"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.PIPELINE_LUA_DIR = exports.PIPELINE_SCRIPTS = void 0;
exports.loadScripts = loadScripts;
const node_path_1 = require("node:path");
const lua_commands_1 = require("../lua-commands");
const begin_attempt_1 = require("./begin-attempt");
const finish_attempt_1 = require("./finish-attempt");
const finish_notification_1 = require("./finish-notification");
const intake_1 = require("./intake");
const schedule_step_1 = require("./schedule-step");
__exportStar(require("./begin-attempt"), exports);
__exportStar(require("./finish-attempt"), exports);
__exportStar(require("./finish-notification"), exports);
__exportStar(require("./intake"), exports);
__exportStar(require("./schedule-step"), exports);
__exportStar(require("./script-reply"), exports);
/** The pipeline's Lua scripts (src/lua), one state change each; see the package README for the convention. */
exports.PIPELINE_SCRIPTS = ['intake-2', 'begin-attempt-3', 'finish-attempt-2', 'schedule-step-1', 'finish-notification-1'];
exports.PIPELINE_LUA_DIR = (0, node_path_1.join)(__dirname, '..', 'lua');
/** Registers the scripts on a connection (EVALSHA under the hood) and returns their typed methods. */
function loadScripts(redis) {
    const command = (0, lua_commands_1.defineLuaCommands)(redis, exports.PIPELINE_LUA_DIR, 'notify', exports.PIPELINE_SCRIPTS);
    return {
        intake: (args) => (0, intake_1.callIntake)(command('intake-2'), args),
        beginAttempt: (args) => (0, begin_attempt_1.callBeginAttempt)(command('begin-attempt-3'), args),
        finishAttempt: (args) => (0, finish_attempt_1.callFinishAttempt)(command('finish-attempt-2'), args),
        scheduleStep: (args) => (0, schedule_step_1.callScheduleStep)(command('schedule-step-1'), args),
        finishNotification: (args) => (0, finish_notification_1.callFinishNotification)(command('finish-notification-1'), args),
    };
}
//# sourceMappingURL=index.js.map