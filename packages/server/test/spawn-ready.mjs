// A helper process for the tests and the benches (Azurite, s3rver): started with this Node, resolved
// once its output says it is ready, rejected if it ends first or takes 20 s, killed when this process
// ends.
import { spawn } from 'node:child_process';

export async function spawnReady(name, args, ready) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  child.once('exit', () => process.off('exit', kill));
  let output = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} was not ready within 20 s: ${output}`)), 20_000);
    const read = (chunk) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} ended (${code}) before it was ready: ${output}`));
    });
  });
  return child;
}
