package boxroot

import (
	"runtime"
	"sync"
)

// The drop-in API's former NewHandle, kept here for a side-by-side
// benchmark: it borrowed a domain from a sync.Pool for every call.

type pooledDomain struct{ d *Domain }

var domainPool = sync.Pool{New: func() any {
	d := std.newDomain()
	w := &pooledDomain{d}
	runtime.AddCleanup(w, func(d *Domain) { d.Close() }, d)
	return w
}}

func newHandleSyncPool(v any) Handle {
	w := domainPool.Get().(*pooledDomain)
	h := w.d.Create(v)
	domainPool.Put(w)
	return h
}

func init() {
	handleAPIs = append(handleAPIs, handleAPI{
		name:   "boxroot-handle-syncpool",
		new:    func(v any) uintptr { return uintptr(newHandleSyncPool(v)) },
		value:  func(h uintptr) any { return Handle(h).Value() },
		delete: func(h uintptr) { Handle(h).Delete() },
	})
}
