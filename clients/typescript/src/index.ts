/** Tavolo's TypeScript SDK: the client, its errors, and the generated API. */
export * from "./client.js";
export * from "./errors.js";
export * from "./installation.js";
export * from "./receipt.js";
export * from "./retry.js";
export * from "./gen/tavolo/v1/common_pb.js";
export * from "./gen/tavolo/v1/engine_pb.js";
export * from "./gen/tavolo/v1/lobby_pb.js";
export * from "./gen/tavolo/v1/wallet_pb.js";
export * from "./gen/tavolo/v1/leaderboard_pb.js";
export { Code } from "@connectrpc/connect";
