export { DEMO_PASSWORD, type RunningServer, startServer } from '../scripts/start-server.mjs';
