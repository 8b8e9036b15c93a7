// The script of SolverWorker's worker: it serves SolverWorker's requests by the explicit
// call below (nothing else in the package installs a message handler).
import { serveSolverRequests } from "./worker.js";

serveSolverRequests();
