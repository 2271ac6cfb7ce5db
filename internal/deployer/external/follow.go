package external

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
)

// change is one state of a followed object: the object, or gone once it
// was deleted, or the error that ended following it.
type change struct {
	obj  *unstructured.Unstructured
	gone bool
	err  error
}

// minWatchSpan: a watch that ends sooner than this is opened again only
// after this long, so a server that keeps closing watches is not hammered.
const minWatchSpan = time.Second

// follow sends every state of the object from after from's version on,
// until it is gone or ctx ends. A watch the server ends is resumed from
// the last version seen; when that version has expired, one read bridges
// the gap. Failing to open a watch ends following with the error.
func follow(ctx context.Context, res dynamic.ResourceInterface, from *unstructured.Unstructured) <-chan change {
	out := make(chan change)
	send := func(c change) bool {
		select {
		case out <- c:
			return true
		case <-ctx.Done():
			return false
		}
	}
	go func() {
		defer close(out)
		name, version := from.GetName(), from.GetResourceVersion()
		for {
			opened := time.Now()
			w, err := res.Watch(ctx, metav1.ListOptions{
				FieldSelector: fields.OneTermEqualSelector("metadata.name", name).String(), ResourceVersion: version,
			})
			if err != nil {
				if ctx.Err() == nil {
					send(change{err: fmt.Errorf("watching DeployItem %s: %w", name, err)})
				}
				return
			}
			next, gone, resync, ok := drain(ctx, w, version, send)
			w.Stop()
			if !ok || gone {
				return
			}
			version = next
			if resync {
				live, err := get(ctx, res, name)
				switch {
				case err != nil:
					if ctx.Err() == nil {
						send(change{err: fmt.Errorf("reading DeployItem %s: %w", name, err)})
					}
					return
				case live == nil:
					send(change{gone: true})
					return
				case !send(change{obj: live}):
					return
				}
				version = live.GetResourceVersion()
			}
			if span := time.Since(opened); span < minWatchSpan {
				select {
				case <-time.After(minWatchSpan - span):
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}

// drain passes one watch's events on until it ends. It returns the last
// version seen, whether the object is gone, whether the watch's version
// expired (the caller must read the object again), and false when ctx
// ended or the receiver stopped listening.
func drain(ctx context.Context, w watch.Interface, version string, send func(change) bool) (string, bool, bool, bool) {
	for {
		select {
		case <-ctx.Done():
			return version, false, false, false
		case ev, open := <-w.ResultChan():
			if !open {
				return version, false, false, true
			}
			switch ev.Type {
			case watch.Error:
				// Mostly 410 Gone (the version expired); whatever it
				// is, one read tells where the object stands.
				return version, false, true, true
			case watch.Deleted:
				return version, true, false, send(change{gone: true})
			case watch.Added, watch.Modified:
				obj, isObj := ev.Object.(*unstructured.Unstructured)
				if !isObj {
					continue
				}
				version = obj.GetResourceVersion()
				if !send(change{obj: obj}) {
					return version, false, false, false
				}
			}
		}
	}
}
