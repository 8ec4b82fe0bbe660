// Package history is rootbench's history store: every results file added
// to it, the commits and machines they measured, each run's figures, and
// the series over them, in one SQLite database (modernc.org/sqlite, pure
// Go: CGO_ENABLED=0 builds keep it).
//
// # Use
//
//	path, err := history.Path(flag)       // --history, else $ROOTBENCH_HISTORY, else the default
//	err = history.Prepare(path)           // before measuring: the directory can hold the store
//	src, err := history.ReadFile(file)    // or FromFile / FromAB for what a command just measured
//	s, err := history.Open(ctx, path, history.Options{})
//	defer s.Close()
//	added, err := s.Add(ctx, src, history.AddOptions{Commits: history.GitCommits(repo)})
//	all, err := s.Series(ctx, history.Filter{Metrics: []string{"wall", "cpu"}})
//	points, err := s.Points(ctx, all[0])  // one point per commit, in commit order
//
// Every error a user can act on is one line naming the store, of a kind
// errors.Is tells: ErrLocked, ErrTooNew, ErrNotStore, ErrNoStore,
// ErrUnwritable.
//
// # What it holds
//
// A file is stored whole, once: its content's SHA-256 (uncompressed, so a
// file and its .gz copy are one) makes adding it again a no-op that says
// so. A file holds measurements: a results file (rootbench/v1 and later
// versions harness.Decode reads, gzipped or not) one, an A/B session (ab
// --export-json) two, its base and its head, each a measurement of its own
// build's commit on the same machine, as both are real runs of their
// builds. An A/A session's two sides are one commit: their runs join that
// commit's one point, never two points of one commit. A measurement records
// its file's tool (revision, modified, version, Go version, command line),
// machine (every field), workload, unit, parameters, start and end.
//
// A commit is the measurement's tool revision (a file without one is
// refused: runs are placed by commit), with its committer time and branch
// as an add's CommitLookup tells them (GitCommits: the repository's
// answers) or AddOptions.Branch gives them; a commit the repository does
// not have keeps an unknown time and branch until an add knows them.
//
// A run keeps every figure of harness.Run: wall time, units of work, each
// pass, CPU time of the measured passes, process times, peak RSS, the
// load around it, the GC record, the implementation's counters, failure.
// Runs of a modified build (uncommitted changes) are stored and belong to
// no series: they measured no commit. A run that another file holds too
// (same commit, machine kind, workload, parameters, benchmark, index,
// start and wall time: a snapshot written during a session and its final
// file) is stored with each file and counts once.
//
// # Series
//
// A series is one (machine kind, workload, parameters, benchmark,
// metric): runs of different machine kinds (series.MachineKind: CPU model,
// logical CPUs, GOMAXPROCS, OS, architecture, memory in GiB; its
// Fingerprint hashes them) or parameters (every parameter, canonical) are
// never in one series. Metrics lists the metrics, each a formula over the
// stored figures. Points reads a series in commit order: by committer
// time, commits of unknown time last, commits of one time in the order
// they were first added; each point is one commit with the values of all
// its runs from every file.
//
// What the store reads out (series.Series, series.Point, series.Commit,
// series.Bisection) are plain values of package history/series, which
// the reports import without linking SQLite.
//
// # Crash safety, locking and concurrency
//
// Each add is one SQLite transaction, committed with write-ahead logging
// (journal_mode=WAL, synchronous=FULL: a commit is on disk when Add
// returns). A process killed at any moment leaves the store as it was
// before the add or after it; the next open recovers it. WAL rather than
// a rollback journal: readers (history show) read the last commit while a
// writer (backfill) writes. Close merges the log back, so that a store no process has
// open is one file. Copy a store only when no rootbench has it open.
//
// Every transaction takes SQLite's write lock when it begins (BEGIN
// IMMEDIATE). A second writer, in this process or another, waits for it
// up to Options.LockWait (DefaultLockWait) and then fails with ErrLocked,
// having written nothing. The invariants relied on: an add sees every add
// committed before it began (so the same content is stored once, however
// many processes add it at once), and a reader sees whole adds only. A
// Store serves its goroutines through one connection, one statement at a
// time.
//
// # Schema versions
//
// The schema has a version (PRAGMA user_version) and the file is marked as
// a rootbench store (PRAGMA application_id), so that another program's
// database is refused and never changed. Open applies the migrations this
// binary knows and the store lacks, each in one transaction with its
// version number; a store of a newer version is refused (ErrTooNew) and
// left as it is.
package history
