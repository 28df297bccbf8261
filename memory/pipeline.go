package memory

import "context"

// projected is a record with its full-text projection (project of its title and body), made off
// the goroutine that writes it.
type projected struct {
	doc         Doc
	title, body string
}

// pipeBatch is how many projected records go to the writer at a time.
const pipeBatch = 256

// streamProjected reads src on a goroutine of its own that validates each record (skip gets the
// ones refused) and projects it, and calls write with each in order on the caller's goroutine:
// reading the source (the journal and its decoding) and projecting overlap SQLite's writing on
// another core. It returns once src is done and every record written, or at the first error of
// either side, after the reading goroutine has ended.
func streamProjected(ctx context.Context, src Source, agentID string, skip func(error), write func(projected) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ch := make(chan []projected, 4)
	errc := make(chan error, 1)
	go func() {
		defer close(ch)
		send := func(b []projected) error {
			select {
			case ch <- b:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		batch := make([]projected, 0, pipeBatch)
		err := src.Docs(ctx, func(d Doc) error {
			if err := d.validate(agentID); err != nil {
				skip(err)
				return nil
			}
			batch = append(batch, projected{doc: d, title: project(d.Title), body: project(d.Body)})
			if len(batch) < pipeBatch {
				return nil
			}
			b := batch
			batch = make([]projected, 0, pipeBatch)
			return send(b)
		})
		if err == nil && len(batch) > 0 {
			err = send(batch)
		}
		errc <- err
	}()
	for batch := range ch {
		for _, p := range batch {
			if err := write(p); err != nil {
				cancel()
				for range ch { // let the reader end
				}
				<-errc
				return err
			}
		}
	}
	return <-errc
}
