// warpcheck's checker as a library (warpcheck::checker): read or build a
// History, decide it, and read the verdict, the witness and the
// counterexample as data.
//
//   History h = load_history("history.bin");        // binary, JSON lines or EDN (formats.hpp)
//   CheckResult r = check_history(h);               // CheckOptions: budgets, threads, algorithm
//   r.verdict                                       // Linearizable, Violation or Unknown (r.reason says why)
//   r.witness                                       // Linearizable: indices into h.ops, in a valid order
//   r.counterexample->history                       // Violation: the refuted sub-history (ids kept)
//   write_text_report(h, r, std::cout);             // what `warpcheck check` prints; write_json_report too
//
// witness_error() checks an order independently; the models are in
// models/ (OpKind, ResultKind, model names).
#pragma once
#include "linearizability/checker.hpp"
#include "linearizability/formats.hpp"
#include "linearizability/report.hpp"
#include "linearizability/witness.hpp"
