/** Where the example apps find the platform: TAVOLO_<SERVICE>_ADDRESS, as the Python CLI. */
import type { Addresses } from "../src/index.js";

/** The services' addresses from the environment (default: `make run`'s ports). */
export function addressesFromEnv(env: NodeJS.ProcessEnv = process.env): Addresses {
  return {
    lobby: env["TAVOLO_LOBBY_ADDRESS"] ?? "127.0.0.1:50051",
    engine: env["TAVOLO_ENGINE_ADDRESS"] ?? "127.0.0.1:50052",
    wallet: env["TAVOLO_WALLET_ADDRESS"] ?? "127.0.0.1:50053",
    leaderboard: env["TAVOLO_LEADERBOARD_ADDRESS"] ?? "127.0.0.1:50054",
  };
}
