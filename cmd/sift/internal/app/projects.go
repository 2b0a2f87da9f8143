package app

import (
	"context"
	"sync"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/store"
)

// InboxStore is the store as the inbox reads it: Store, with each session
// of an agent's own history named by its project (review.Session.Project)
// rather than by its work item, which is a folder slug or a project hash.
// The keys stay as they are: decisions, searches and every other output
// name a session by its key.
type InboxStore struct {
	Store
	Names *ProjectNames
}

// ListSessions returns a page of sessions, history sessions named.
func (s InboxStore) ListSessions(ctx context.Context, q review.Query) (review.Page, error) {
	p, err := s.Store.ListSessions(ctx, q)
	s.Names.name(p.Sessions)
	return p, err
}

// GetSession returns one session, named if it is a history session.
func (s InboxStore) GetSession(ctx context.Context, k review.SessionKey) (review.Session, error) {
	sess, err := s.Store.GetSession(ctx, k)
	one := []review.Session{sess}
	s.Names.name(one)
	return one[0], err
}

// Followups returns the open follow-ups, their history sessions named.
func (s InboxStore) Followups(ctx context.Context) ([]review.Followup, error) {
	fs, err := s.Store.Followups(ctx)
	for i := range fs {
		one := []review.Session{fs[i].Session}
		s.Names.name(one)
		fs[i].Session = one[0]
	}
	return fs, err
}

// ProjectNames names the projects of the history sessions a store holds
// (review.ProjectLabels): by the folders their sessions record, those the
// store held when last loaded and those of every session named since, so
// that a project sharing its last folder name with another is told
// apart by its parents as soon as both are known. It is safe for concurrent use.
type ProjectNames struct {
	st      *store.Store
	mu      sync.Mutex
	folders map[string]bool
	labels  map[string]string
}

// NewProjectNames returns the names of st's history projects; none are
// known until Load.
func NewProjectNames(st *store.Store) *ProjectNames {
	return &ProjectNames{st: st, folders: map[string]bool{}, labels: map[string]string{}}
}

// Load reads the folders the store's history sessions record, adding them
// to those known.
func (n *ProjectNames) Load(ctx context.Context) error {
	folders, err := n.st.HistoryFolders(ctx)
	if err != nil {
		return err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.add(folders...)
	return nil
}

// name sets the Project of the history sessions among ss: the label of
// the folder it records, else a short hash of its work item.
func (n *ProjectNames) name(ss []review.Session) {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	for i := range ss {
		if ss[i].Phase == ingest.PhaseInteractive && ss[i].StreamCwd != "" {
			n.add(ss[i].StreamCwd)
		}
	}
	for i := range ss {
		s := &ss[i]
		switch {
		case s.Phase != ingest.PhaseInteractive:
		case s.StreamCwd != "":
			s.Project = n.labels[s.StreamCwd]
		default:
			s.Project = review.ShortHash(s.WorkItemID)
		}
	}
}

// add adds folders to those known, naming them all again when one is
// new. The caller holds the lock.
func (n *ProjectNames) add(folders ...string) {
	grown := false
	for _, f := range folders {
		if f != "" && !n.folders[f] {
			n.folders[f], grown = true, true
		}
	}
	if !grown {
		return
	}
	all := make([]string, 0, len(n.folders))
	for f := range n.folders {
		all = append(all, f)
	}
	n.labels = review.ProjectLabels(all)
}
