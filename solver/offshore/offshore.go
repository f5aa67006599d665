// Package offshore is the seam through which offshore modules plug into the
// glue code (solver/coupling): hydrodynamics (HydroDyn-equivalent),
// moorings (MoorDyn, MAP++), the substructure (SubDyn) and any other module
// that loads the platform. It holds only the data exchanged and the
// interface; it imports no physics, so every module can implement it without
// import cycles.
//
// The exchange follows OpenFAST's module framework (OpenFAST documentation,
// "Module framework" and the ElastoDyn/HydroDyn/MoorDyn coupling through
// ElastoDyn's PlatformPtMesh): a module is initialised from the deck, its
// states are advanced over [t, t+dt] from its inputs at t and t+dt, and its
// outputs at t are computed from its states and inputs at t. Inputs are the
// motion of the platform reference point (ElastoDyn's platform DOFs), and,
// for modules that load a nodal mesh, the motion of their nodes; outputs are
// the loads at the platform reference point and on the nodes.
//
// Added mass. A load proportional to the platform acceleration (the
// infinite-frequency added mass of potential-flow radiation, a substructure's
// Guyan mass) cannot be applied explicitly when it is comparable to the
// platform's own mass: the one-step lag makes the iteration a(n+1) =
// (F − A·a(n))/M diverge once A > M. Such a module reports the matrix in
// Output.AddedMass and leaves −A·a out of Output.Platform; the structural
// model adds A to its mass matrix, so the term is solved implicitly. The
// module's output channels may still report the full load: Channel.Get
// receives the final input, with the accelerations the structure solved.
//
// Frames and units: OpenFAST's global (inertial) frame, x downwind, z up,
// origin at the mean sea level (or ground) below the undisplaced tower axis;
// SI units; rotations in radians.
package offshore

import "fmt"

// Vec3 is a vector in the global frame.
type Vec3 = [3]float64

// Load is a force and a moment about a point, global frame.
type Load struct {
	Force  Vec3 // N
	Moment Vec3 // N·m
}

// Add adds o to l.
func (l *Load) Add(o Load) {
	for i := 0; i < 3; i++ {
		l.Force[i] += o.Force[i]
		l.Moment[i] += o.Moment[i]
	}
}

// RigidMotion is the motion of a rigid body's reference point: for the
// platform, ElastoDyn's platform reference point (PtfmRefxt, PtfmRefyt,
// PtfmRefzt) moved by the six platform DOFs.
type RigidMotion struct {
	// RefPos0 is the undisplaced position of the reference point.
	RefPos0 Vec3
	// Disp is the translation of the reference point from RefPos0, m
	// (PtfmSurge, PtfmSway, PtfmHeave).
	Disp Vec3
	// Angles are the platform rotations roll, pitch and yaw (ElastoDyn's
	// generalized coordinates PtfmRoll, PtfmPitch, PtfmYaw), rad: the
	// intrinsic Z-Y-X Euler angles of Orient (yaw, then pitch, then roll),
	// as OpenFAST v4+ ElastoDyn defines them.
	Angles Vec3
	// Orient holds the body axes as rows in global coordinates (the
	// direction-cosine matrix from global to body, like an OpenFAST mesh's
	// Orientation). A body-fixed vector b is Orientᵀ·b in global axes.
	Orient [3][3]float64
	Vel    Vec3 // m/s, of the reference point
	AngVel Vec3 // rad/s
	Acc    Vec3 // m/s², of the reference point (kinematic, gravity excluded)
	AngAcc Vec3 // rad/s²
}

// Pos returns the displaced position of the reference point.
func (r *RigidMotion) Pos() Vec3 {
	return Vec3{r.RefPos0[0] + r.Disp[0], r.RefPos0[1] + r.Disp[1], r.RefPos0[2] + r.Disp[2]}
}

// NodeMotion is the motion of one node of a nodal mesh.
type NodeMotion struct {
	Pos0   Vec3          // undisplaced position
	Pos    Vec3          // displaced position
	Orient [3][3]float64 // rows: node axes in global coordinates
	Vel    Vec3
	AngVel Vec3
	Acc    Vec3
	AngAcc Vec3
}

// Input is what a module receives at one instant.
type Input struct {
	// Platform is the motion of the platform reference point.
	Platform RigidMotion
	// Nodes is the motion of the module's own nodes (NodalModule.Nodes),
	// in the same order; nil for modules without nodes. The coupling carries
	// the platform's rigid-body motion to them, or the substructure's
	// motion where a Substructure module is present.
	Nodes []NodeMotion
	// NodeLoads are the loads other modules put on this module's mesh, for
	// a Substructure only (e.g. strip-theory loads on its members), at its
	// MeshNodes in order.
	NodeLoads []Load
}

// CopyFrom makes in a deep copy of o.
func (in *Input) CopyFrom(o *Input) {
	in.Platform = o.Platform
	in.Nodes = append(in.Nodes[:0], o.Nodes...)
	in.NodeLoads = append(in.NodeLoads[:0], o.NodeLoads...)
}

// Output is what a module computes at one instant.
type Output struct {
	// Platform is the load on the platform at its reference point, global
	// frame, WITHOUT the added-mass term −AddedMass·a.
	Platform Load
	// AddedMass is the 6×6 matrix (surge, sway, heave, roll, pitch, yaw
	// about the reference point, global frame) of the load −A·[a; α] the
	// module's true load contains; zero when the module has none.
	AddedMass [6][6]float64
	// NodeLoads are the loads on the module's own nodes (NodalModule) that
	// the coupling transfers to the substructure, or rigidly to the
	// platform reference point when there is none. They are in addition to
	// Platform. Same order as the module's Nodes.
	NodeLoads []Load
	// MeshMotion is, for a Substructure, the motion of its MeshNodes.
	MeshMotion []NodeMotion
}

// Channel is one output channel of a module: OpenFAST's name and unit and
// how to read its value after a step. Get receives the module's input at
// the output time, with the platform acceleration the structure solved
// (which Output.Platform excludes when there is added mass).
type Channel struct {
	Name string
	Unit string
	Get  func(u *Input) float64
}

// Module is one offshore module in the coupling.
type Module interface {
	// Name is the OpenFAST module the model stands for ("HydroDyn",
	// "MoorDyn", "SubDyn", ...), used in errors and to order channels.
	Name() string
	// Init computes the outputs at t = 0 for the initial input and sets the
	// states' initial values (e.g. a mooring's static equilibrium).
	Init(u *Input, y *Output) error
	// UpdateStates advances the states from t to t+dt with the inputs at t
	// (uT) and at t+dt (uNext); inputs in between are interpolated linearly.
	UpdateStates(t, dt float64, uT, uNext *Input) error
	// CalcOutput computes the outputs at time t from the states at t and
	// the input u. It may be called more than once for the same t (the
	// substructure and strip-theory modules exchange motions and loads); it
	// must not advance the states.
	CalcOutput(t float64, u *Input, y *Output) error
	// Channel resolves one of the module's output channels by name
	// (case-insensitive); ok is false for a name the module does not own.
	Channel(name string) (c Channel, ok bool)
}

// NodalModule is a Module that also takes the motion of its own nodes and
// loads them (strip-theory members, mooring fairleads): Nodes lists their
// undisplaced positions, and the module's Input.Nodes and Output.NodeLoads
// follow that order.
type NodalModule interface {
	Module
	Nodes() []Vec3
}

// Substructure is a Module that owns a flexible substructure mesh (SubDyn):
// it takes the platform reference point as its transition piece, reports
// the motion of MeshNodes in Output.MeshMotion, and receives the loads other
// modules put on its nodes in Input.NodeLoads.
type Substructure interface {
	Module
	MeshNodes() []Vec3
}

// NodalMassModule is a NodalModule whose nodes carry mass that moves with
// them (strip-theory added mass, marine growth, flooded fluid): NodeMasses
// gives each node's 3×3 translational mass (Nodes order), whose load −M·a
// Output.NodeLoads leave out. Without a substructure the module reports it
// in Output.AddedMass itself (rigidly about the platform reference point);
// on a substructure the coupling attaches it to the mesh (MeshMassTaker).
type NodalMassModule interface {
	NodalModule
	NodeMasses() [][3][3]float64
	// NodeInertias gives each node's rotational inertia about the node
	// (global axes), whose load −J·α Output.NodeLoads leave out too.
	NodeInertias() [][3][3]float64
}

// MeshMassTaker is a Substructure that takes the masses other modules
// attach to its mesh into its own model, so that its modes, its reduction
// and the mass it reports in Output.AddedMass include them.
// AttachMeshMass is called once, before Init, with the 6×6 mass about each
// MeshNodes node (global axes, translations then rotations).
type MeshMassTaker interface {
	Substructure
	AttachMeshMass(m [][6][6]float64) error
}

// OutLister is a Module whose input file lists output channels (its
// OutList); the coupling writes them after ElastoDyn's, AeroDyn's and
// ServoDyn's, in module order.
type OutLister interface {
	OutList() []string
}

// Env is the environment and the platform geometry every module is built
// with, from the primary (.fst) and ElastoDyn inputs.
type Env struct {
	Gravity  float64 // m/s²
	WtrDens  float64 // kg/m³
	WtrDpth  float64 // m
	MSL2SWL  float64 // m
	DT       float64 // glue time step, s
	TMax     float64 // s
	PtfmRef0 Vec3    // undisplaced platform reference point
}

// Check reports the first non-finite value in a load, naming the module.
func (l Load) Check(module string) error {
	for i := 0; i < 3; i++ {
		if l.Force[i] != l.Force[i] || l.Force[i]-l.Force[i] != 0 || l.Moment[i] != l.Moment[i] || l.Moment[i]-l.Moment[i] != 0 {
			return fmt.Errorf("%s: platform load is not finite (force %v, moment %v)", module, l.Force, l.Moment)
		}
	}
	return nil
}
