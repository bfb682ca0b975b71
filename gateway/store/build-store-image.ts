// Builds the embedded store's image (store-image.ts): initdb + migrations, dumped to a gzipped
// tar. Run as a child process by the store when no image fits the installed PGlite, so the
// initdb's WASM memory leaves with it; or by hand after a PGlite upgrade, to refresh the image
// shipped in the repository:
//   npx tsx gateway/store/build-store-image.ts --ship
import { buildStoreImage, SHIPPED_STORE_IMAGE } from './store-image';

const [target] = process.argv.slice(2);
if (target === undefined || target === '--help') {
  console.error('usage: tsx gateway/store/build-store-image.ts <file.tar.gz> | --ship');
  process.exit(2);
}
try {
  const file = target === '--ship' ? SHIPPED_STORE_IMAGE : target;
  const info = await buildStoreImage(file);
  console.error(`store image: ${file} (PGlite ${info.pglite}, migrations ${info.migrations.join(', ')})`);
} catch (error) {
  console.error(`store image: ${(error as Error).message}`);
  process.exit(1);
}
