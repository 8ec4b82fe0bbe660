package boxroot_test

import (
	"fmt"

	"github.com/rootbench/rootbench/impls/boxroot"
)

// The drop-in API, shaped like runtime/cgo.Handle: any goroutine may create,
// read and delete, and the handle is an integer that C code may hold.
func ExampleNewHandle() {
	h := boxroot.NewHandle("hello")
	fmt.Println(h.Value())
	h.Delete()
	// Output: hello
}

// Domains: each goroutine creates in its own domain, without atomics;
// handles may be read anywhere and deleted by any domain (a delete by
// another domain is batched back to the owner).
func ExampleImpl_NewLocalDomain() {
	im := boxroot.New(boxroot.Options{})
	producer, consumer := im.NewLocalDomain(), im.NewLocalDomain()
	handles := make(chan boxroot.Handle, 3)
	for i := range 3 {
		handles <- producer.Create(i * i)
	}
	close(handles)
	sum := 0
	for h := range handles {
		sum += im.Get(h).(int)
		consumer.Delete(h) // a remote delete
	}
	producer.Close()
	consumer.Close()
	fmt.Println(sum, im.Live())
	// Output: 5 0
}
