package windfile

import "fmt"

// StreamOptions sizes the buffers of a streamed box (BTSStream,
// BladedStream); zero values take the defaults.
type StreamOptions struct {
	// BlockBytes is the decoded size of one block of time steps (float32
	// values); a block holds at least one step. Default 512 KiB.
	BlockBytes int
	// Blocks is how many decoded blocks are kept; at least 2, so the two
	// steps a time interpolation needs are held together. Default 4.
	Blocks int
}

// Stream buffer defaults: 4 blocks of 512 KiB hold about 270 steps of a
// 25 × 25 box (13 s at 0.05 s), several times the spread of box times the
// rotor, tower and a floating platform's excursions ask for at one instant.
const (
	DefaultStreamBlockBytes = 512 << 10
	DefaultStreamBlocks     = 4
)

// stepBlocks holds the decoded time steps of a box read from disk: steps
// are decoded a block at a time by fill, into a fixed number of block
// buffers reused least recently used first. Each step is laid out as
// Step returns it: the grid's (u, v, w) in the .bts order, then the tower
// points'. The file formats differ only in fill.
type stepBlocks struct {
	nt, nGrid  int // steps in the box; grid values per step (3·NY·NZ)
	perStep    int // values per step, grid then tower
	blockSteps int
	blocks     []streamBlock
	clock      uint64
	last       *streamBlock // the block of the previous Step
	// fill decodes steps first to first+n-1 into dst (n·perStep values).
	fill func(dst []float32, first, n int) error
}

// streamBlock is one decoded block of time steps.
type streamBlock struct {
	first int // first step held, -1 when empty
	n     int // steps held
	used  uint64
	vals  []float32
}

func newStepBlocks(nt, nGridPoints, nTower int, opt StreamOptions, fill func(dst []float32, first, n int) error) stepBlocks {
	if opt.BlockBytes <= 0 {
		opt.BlockBytes = DefaultStreamBlockBytes
	}
	if opt.Blocks <= 0 {
		opt.Blocks = DefaultStreamBlocks
	}
	opt.Blocks = max(opt.Blocks, 2)
	perStep := 3 * (nGridPoints + nTower)
	s := stepBlocks{nt: nt, nGrid: 3 * nGridPoints, perStep: perStep, fill: fill,
		blockSteps: min(max(opt.BlockBytes/(4*perStep), 1), nt), blocks: make([]streamBlock, opt.Blocks)}
	for i := range s.blocks {
		s.blocks[i].first = -1
	}
	return s
}

// Step returns the velocities of time step it: grid holds the NY×NZ
// points' (u, v, w) in the .bts order, ((iz*NY + iy)*3 + c), tower the
// tower points' ((i*3) + c).
func (s *stepBlocks) Step(it int) (grid, tower []float32, err error) {
	if it < 0 || it >= s.nt {
		return nil, nil, fmt.Errorf("wind box: time step %d outside the box's %d", it, s.nt)
	}
	s.clock++
	b := s.block(it)
	if b == nil {
		if b, err = s.load(it); err != nil {
			return nil, nil, err
		}
	}
	b.used = s.clock
	s.last = b
	k := (it - b.first) * s.perStep
	return b.vals[k : k+s.nGrid : k+s.nGrid], b.vals[k+s.nGrid : k+s.perStep : k+s.perStep], nil
}

// block returns the buffer holding step it, nil if none does.
func (s *stepBlocks) block(it int) *streamBlock {
	if b := s.last; b != nil && it >= b.first && it < b.first+b.n {
		return b
	}
	for i := range s.blocks {
		b := &s.blocks[i]
		if b.first >= 0 && it >= b.first && it < b.first+b.n {
			return b
		}
	}
	return nil
}

// load decodes the block of it into the least recently used buffer.
func (s *stepBlocks) load(it int) (*streamBlock, error) {
	victim := &s.blocks[0]
	for i := range s.blocks {
		if b := &s.blocks[i]; b.used < victim.used {
			victim = b
		}
	}
	first := it / s.blockSteps * s.blockSteps
	n := min(s.blockSteps, s.nt-first)
	victim.first = -1 // empty until the read succeeds
	s.last = nil
	if cap(victim.vals) < n*s.perStep {
		victim.vals = make([]float32, s.blockSteps*s.perStep)
	}
	victim.vals = victim.vals[:n*s.perStep]
	if err := s.fill(victim.vals, first, n); err != nil {
		return nil, err
	}
	victim.first, victim.n = first, n
	return victim, nil
}

// decodedBytes is the most memory the decoded blocks take.
func (s *stepBlocks) decodedBytes() int {
	return 4 * len(s.blocks) * s.blockSteps * s.perStep
}
