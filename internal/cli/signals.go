package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// The signals that end a command early (run, callback, ab, bisect): each
// command cancels its work on SIGINT or SIGTERM (signalContext), writes
// what it measured, and exits with the signal's status
// (interruptedError).

// signalContext cancels ctx on SIGINT or SIGTERM and remembers which came.
func signalContext(parent context.Context) (context.Context, func(), func() os.Signal) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var got os.Signal
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case got = <-ch:
			cancel()
		case <-ctx.Done():
		}
	}()
	stop := func() {
		signal.Stop(ch)
		cancel()
		<-done
	}
	caught := func() os.Signal {
		if ctx.Err() == nil {
			return nil
		}
		<-done // the goroutine has returned: got is settled
		return got
	}
	return ctx, stop, caught
}

// signalLabel names a signal as SIGINT or SIGTERM.
func signalLabel(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// interruptedError is the error of a command that sig interrupted, with
// the signal's exit status: "interrupted (SIGINT)" followed by what the
// format says (what was done, what was written).
func interruptedError(sig os.Signal, format string, args ...any) error {
	code := exitInterrupted
	if sig == syscall.SIGTERM {
		code = exitTerminated
	}
	return &exitError{code: code, err: fmt.Errorf("interrupted (%s)"+format, append([]any{signalLabel(sig)}, args...)...)}
}
