//! A piece type's move as the move families of the rules (§5–§10), in its owner's frame.
//!
//! This is the engine's own description, written by hand from the spec's prose for each type in
//! `pieces.rs`; it does not read XBetza. Directions are numbered clockwise from straight forward,
//! so turning by `r` eighths is `(d + r) % 8` and turning back is `+ 4`.

/// Straight forward.
pub const F: u8 = 1 << 0;
pub const FR: u8 = 1 << 1;
pub const R: u8 = 1 << 2;
pub const BR: u8 = 1 << 3;
pub const B: u8 = 1 << 4;
pub const BL: u8 = 1 << 5;
pub const L: u8 = 1 << 6;
pub const FL: u8 = 1 << 7;
pub const ORTH: u8 = F | R | B | L;
pub const DIAG: u8 = FR | BR | BL | FL;
pub const ALL: u8 = ORTH | DIAG;

/// A slide that only the board's edge stops.
pub const INF: u8 = 24;

/// Second-step turns after a locust capture (bit r = turn by r eighths): straight on.
pub const STRAIGHT: u8 = 1 << 0;
/// 90° either way.
pub const SQUARE_TURNS: u8 = 1 << 2 | 1 << 6;
/// A king step anywhere but back home (home is igui, its own family).
pub const ANY_BUT_HOME: u8 = ALL & !(1 << 4);

/// (file, rank) step of each direction in the owner's frame: right = +file, forward = +rank.
pub const STEP: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// The directions in a mask.
pub fn dirs(mask: u8) -> impl Iterator<Item = usize> {
    (0..8).filter(move |d| mask & (1 << d) != 0)
}

/// One type's move families. Each field is one family; a type's moves are their union, two paths
/// to the same result being one move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moves {
    /// Per direction, how far the piece slides through empty squares (capturing on the first
    /// occupied one). A step is 1, `W2` is 2, a lame `nD` beside a step is 2, a rider [`INF`]:
    /// in one direction they are all the same family, so they merge into the longest.
    pub slide: [u8; 8],
    /// Directions whose slide also captures the first piece beyond one or two occupied squares,
    /// leaving those in place (range-jumping generals, §6.7).
    pub jump: u8,
    /// Per direction, the range of a slide that skips its first square whatever it holds (the
    /// Heavenly Tetrarch's `j`, §6.9); the range counts the skipped square.
    pub skip: [u8; 8],
    /// Leaps (file, rank) over anything to an empty or enemy square.
    pub leaps: Vec<(i8, i8)>,
    /// Per direction d: after capturing the enemy on the neighbour in direction d, the turns of
    /// one more king step to an empty or enemy square (lion power §6.1, `caf`/`cas`/`cav` §6.3–4).
    pub locust: [u8; 8],
    /// Directions of the lion dog's "capture S1, hop over S2, land on S3" (§6.2 item 3).
    pub hop: u8,
    /// Directions of the lion dog's "pass S1, capture S2, then S3 or back to S1" (§6.2 item 4).
    pub far: u8,
    /// Neighbours the piece may capture without moving (igui).
    pub igui: u8,
    /// Neighbours of which one must be empty for the piece to pass (§7).
    pub pass: u8,
    /// Up to this many king steps through empty squares (area move, §6.5).
    pub area: u8,
    /// First-leg directions of a hook move: slide to an empty square, turn 90° either way, slide
    /// on (§6.8).
    pub hook: u8,
    /// Leap to any square of the board (the Emperor, §6.10).
    pub anywhere: bool,
}

/// A type with no move yet; the builder methods below add families.
pub fn moves() -> Moves {
    Moves::default()
}

impl Moves {
    /// Slides of up to `range` squares in each of `mask`'s directions.
    pub fn ride(mut self, mask: u8, range: u8) -> Moves {
        for d in dirs(mask) {
            self.slide[d] = self.slide[d].max(range);
        }
        self
    }

    /// One step in each of `mask`'s directions.
    pub fn step(self, mask: u8) -> Moves {
        self.ride(mask, 1)
    }

    /// A leap of exactly `distance` squares along each of `mask`'s directions (`D` = orthogonal 2,
    /// `A` = diagonal 2, `H` = orthogonal 3, `G` = diagonal 3).
    pub fn leap(mut self, mask: u8, distance: i8) -> Moves {
        for d in dirs(mask) {
            let (f, r) = STEP[d];
            self.add_leap((f * distance, r * distance));
        }
        self
    }

    /// The eight knight leaps.
    pub fn knight(mut self) -> Moves {
        for (f, r) in [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)] {
            self.add_leap((f, r));
        }
        self
    }

    fn add_leap(&mut self, v: (i8, i8)) {
        if !self.leaps.contains(&v) {
            self.leaps.push(v);
        }
    }

    /// Unlimited slides in `mask`'s directions that may also capture over one or two pieces.
    pub fn jumping(mut self, mask: u8) -> Moves {
        self.jump |= mask;
        self.ride(mask, INF)
    }

    /// Slides that skip their first square, up to `range` squares counting it.
    pub fn skipping(mut self, mask: u8, range: u8) -> Moves {
        for d in dirs(mask) {
            self.skip[d] = range;
        }
        self
    }

    /// After capturing on a neighbour in `mask`, one more step with one of the `turns`.
    pub fn capture_then(mut self, mask: u8, turns: u8) -> Moves {
        for d in dirs(mask) {
            self.locust[d] |= turns;
        }
        self
    }

    /// Igui on the neighbours in `mask`.
    pub fn igui(mut self, mask: u8) -> Moves {
        self.igui |= mask;
        self
    }

    /// Passing, allowed when a neighbour in `mask` is empty.
    pub fn pass(mut self, mask: u8) -> Moves {
        self.pass |= mask;
        self
    }

    /// Lion power (§6.1): leap anywhere within two squares; capture a neighbour and step once
    /// more anywhere; igui; pass.
    pub fn lion(self) -> Moves {
        self.leap(ALL, 1).leap(ALL, 2).knight().capture_then(ALL, ANY_BUT_HOME).igui(ALL).pass(ALL)
    }

    /// Lion-dog power on the rays of `mask` (§6.2): leap to S1, S2 or S3; capture S1 and go on to
    /// S2; capture S1, hop S2, land on S3; pass S1, capture S2, then S3 or back to S1; igui on S1;
    /// pass through an empty S1.
    pub fn lion_dog(mut self, mask: u8) -> Moves {
        self.hop |= mask;
        self.far |= mask;
        self.leap(mask, 1).leap(mask, 2).leap(mask, 3).capture_then(mask, STRAIGHT).igui(mask).pass(mask)
    }

    /// The two-square lion power on the rays of `mask` (Soaring Eagle, Horned Falcon, §6.3): leap
    /// to S1 or S2; capture S1 and go on to S2, or back home (igui); pass through an empty S1.
    pub fn eagle(self, mask: u8) -> Moves {
        self.leap(mask, 1).leap(mask, 2).capture_then(mask, STRAIGHT).igui(mask).pass(mask)
    }

    /// Area move of up to `steps` king steps (§6.5), with its pass.
    pub fn area(mut self, steps: u8) -> Moves {
        self.area = steps;
        self.pass(ALL)
    }

    /// Hook moves whose first leg goes in `mask`'s directions (§6.8).
    pub fn hook(mut self, mask: u8) -> Moves {
        self.hook |= mask;
        self
    }

    /// The Emperor's leap to any square.
    pub fn anywhere(mut self) -> Moves {
        self.anywhere = true;
        self
    }
}
