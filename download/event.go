package download

import (
	"time"

	"github.com/rfc1738/rfc1738/access"
)

// An EventKind says what an Event reports.
type EventKind int

const (
	_ EventKind = iota // the zero value names no event
	// Resuming: Part holds the bytes an earlier run left, and the job
	// goes on from their end (Part.Found); Part.Adopted when they were
	// the final file itself.
	Resuming
	// StartingOver: Part.Name held Part.Found bytes an earlier run left,
	// and Resume is off: the job starts from the first byte.
	StartingOver
	// NoResume: a resume was asked for and Err says why it cannot be
	// had (access.ErrNoResume, or access.ErrLongTransfer once bytes
	// came): the job is fetched whole, from the first byte.
	NoResume
	// SentWhole: asked for the resource from byte N, the server sent
	// all of it (Response): the file starts over.
	SentWhole
	// Started: a body begins to arrive (Response: its size, its type,
	// the byte it starts at).
	Started
	// Progress: N more bytes of the body arrived.
	Progress
	// Stopped: the body that Started announced ended; Err is nil when
	// it was read whole.
	Stopped
	// Retrying: an attempt failed with Err, a transient failure; the
	// next one, retry number Attempt, comes after Delay.
	Retrying
	// Saved: the job is complete: N bytes under Path (renamed from its
	// .part file, synced unless NoSync), or written to the job's Out.
	Saved
	// Failed: the job failed with Err. When Kept is set, the .part file
	// of that name stays, with N bytes, for a later resume; else no file
	// of the job is left (an adopted file goes back under its name).
	Failed
)

// An Event is what a Fetcher tells of a job as it runs, for a progress
// display or a log. The fields a kind does not mention are zero.
type Event struct {
	Kind     EventKind
	Job      int    // the job's index in the jobs given to Run
	Path     string // the job's Path
	Response *access.Response
	Part     *Part
	N        int64
	Err      error
	Attempt  int
	Delay    time.Duration
	Kept     string
}
