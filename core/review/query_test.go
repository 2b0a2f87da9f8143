package review

import "testing"

func TestSortKeys(t *testing.T) {
	t.Parallel()
	ks := SortKeys()
	if len(ks) != 8 || ks[0] != SortTriage || ks[1] != SortStarted || ks[7] != SortApprovals {
		t.Errorf("sort keys %v: want triage first, then the inbox's keys 1 to 7", ks)
	}
}
