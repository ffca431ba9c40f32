export { DEMO_CLIENT_SECRET, DEMO_PASSWORD, type RunningServer, startServer } from '../scripts/start-server.mjs';
