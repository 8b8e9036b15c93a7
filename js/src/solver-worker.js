/**
 * The script of SolverWorker's worker (a Web Worker or a worker_threads Worker): it
 * serves the solver requests SolverWorker sends, by the explicit call below. Nothing
 * else in the package installs a message handler.
 * @module solver-worker
 */
import { serveSolverRequests } from "./worker.js";

serveSolverRequests();
