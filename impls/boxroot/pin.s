// This file is empty on purpose: a package with an assembly file is
// compiled without -complete, which lets pin.go declare procPin and
// procUnpin without bodies (they are linked to the runtime's).
