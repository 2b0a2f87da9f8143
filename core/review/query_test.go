package review

import "testing"

func TestSortKeys(t *testing.T) {
	t.Parallel()
	ks := SortKeys()
	if len(ks) != 9 || ks[0] != SortTriage || ks[1] != SortStarted || ks[7] != SortApprovals || ks[8] != SortOutcome {
		t.Errorf("sort keys %v: want triage first, then the inbox's keys 1 to 8", ks)
	}
}
