// Package decks is everything the service does with a turbine's OpenFAST
// input deck: extracting an uploaded ZIP within limits (zip.go) and finding
// its main .fst (upload.go), converting an upload in the OpenFAST v3
// layout to v5 in place (convert.go), building a deck from scratch from the NREL
// 5 MW template (create.go, model.go), rewriting a stored deck on an edit
// (edit.go), tuning the built-in baseline controller (baseline.go), the
// warnings an engineer should check (warnings.go), the detailed properties
// and .fst defaults shown on the turbine page (properties.go), the bundled
// reference turbines (demos.go), and the run deck of a job with its wind
// file (run.go, wind.go), and reading a stored turbine's deck for its
// endpoints and page (stored.go) and as files: its tree, one file's text,
// the whole deck as ZIP and two decks compared parameter by parameter
// (files.go). It reads and writes decks with solver/deck and
// stores nothing itself: rows and files are the TurbineService's (package
// db).
package decks
