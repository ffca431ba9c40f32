export { DEMO_PASSWORD, startServer } from '../scripts/start-server.mjs';
