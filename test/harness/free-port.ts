export { freePort } from '@notify/devkit';
