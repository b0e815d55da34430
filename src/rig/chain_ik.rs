//! Inverse kinematics for a chain of bones with joint limits (the bones note and
//! 004): the tip bone's end `R'_tip · (0, length, 0)` should reach a target.
//!
//! Every solver works by one step: turn bone `i` about its posed origin `O`
//! by the shortest rotation `r` that takes a point `P` (the tip, or the next
//! joint) toward the target direction, written into the bone's own frame,
//! `q' = (F⁻¹ r F) · q` with `F` the rotation of its frame before its
//! animation, then clamped to the bone's limit. So every solution respects
//! every limit by construction.
//!
//! - `analytic` (two bones): the animation talk's law of cosines places the joint
//!   `J = A + a (d̂ cos α ± ŝ sin α)` with `cos α = (a² + d² − b²)/(2ad)`;
//!   both elbow solutions are tried and the one that reaches (within the
//!   limits) nearest the current pose is kept.
//! - `ccd` (cyclic coordinate descent): from the tip up, each bone turns the
//!   tip toward the target; repeated.
//! - `fabrik` (forward and backward reaching): the joint positions are moved
//!   onto the target and back onto the root keeping the segment lengths,
//!   then each bone, root first, turns toward its new next joint; repeated.
//!   Where the limits stall it (the passes place joints no limited rotation
//!   reaches), CCD sweeps take over.
//! - Both hand over to damped least squares steps (`chain_dls`) once a
//!   sweep of their own takes off less than half the remaining distance:
//!   sweeps converge linearly and crawl near the target, especially against
//!   limits; the Jacobian steps converge fast there. (Without them, 2–6 bone
//!   chains with random limits reached 69 % (CCD) and 78 % (FABRIK) of
//!   reachable targets within 64 sweeps; with them 99 %.)
//!
//! Out of reach, the chain stretches toward the target as far as its limits
//! allow, and the report says it did not get there.

use glam::{Mat4, Quat, Vec3};

use crate::rig::chain::Chain;
use crate::rig::chain_dls::dls_step;
use crate::rig::limits::JointLimit;
use crate::rig::pose::{pose_to_model_stretched, BoneTransform};
use crate::rig::skeleton::Skeleton;

/// How to solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IkMethod {
    /// The animation talk's closed formula, two bones.
    Analytic,
    /// Cyclic coordinate descent.
    Ccd,
    /// Forward and backward reaching.
    Fabrik,
}

impl std::str::FromStr for IkMethod {
    type Err = IkError;

    fn from_str(name: &str) -> Result<Self, IkError> {
        match name {
            "analytic" => Ok(Self::Analytic),
            "ccd" => Ok(Self::Ccd),
            "fabrik" => Ok(Self::Fabrik),
            _ => Err(IkError::UnknownMethod {
                name: name.to_owned(),
            }),
        }
    }
}

/// What to solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IkRequest {
    /// The bone whose end should reach the target.
    pub tip: usize,
    /// Bones in the chain, the tip included (2 for a two-bone chain).
    pub chain: usize,
    /// Where the tip's end should go, model space.
    pub target_model: Vec3,
    /// The solver.
    pub method: IkMethod,
    /// At most this many sweeps (CCD, FABRIK).
    pub iterations: usize,
    /// Close enough, model units.
    pub tolerance: f32,
    /// The plane to bend a straight two-bone chain in (model space),
    /// usually the view direction.
    pub fallback_normal: Vec3,
}

/// What a solve achieved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IkReport {
    /// Whether the tip is within the tolerance of the target.
    pub reached: bool,
    /// The tip's distance from the target, model units.
    pub error: f32,
    /// Sweeps used (1 for `analytic`).
    pub iterations: usize,
}

/// Why a solve was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum IkError {
    /// The tip is not a bone.
    #[error("ik: bone {tip} does not exist (the skeleton has {bone_count} bones)")]
    NoSuchBone {
        /// The tip asked for.
        tip: usize,
        /// Bones in the skeleton.
        bone_count: usize,
    },
    /// The tip has fewer ancestors than the chain needs.
    #[error("ik: a chain of {chain} bones ending at bone {tip} needs {chain} bones, only {available} are above and including it")]
    ChainTooLong {
        /// The tip.
        tip: usize,
        /// The chain length asked for.
        chain: usize,
        /// Bones from the root down to the tip.
        available: usize,
    },
    /// `analytic` was asked for a chain that is not two bones.
    #[error("ik: the analytic solver takes a chain of 2 bones, not {chain}")]
    AnalyticNeedsTwo {
        /// The chain length asked for.
        chain: usize,
    },
    /// The target or tolerance is NaN or infinite.
    #[error("ik: the target and the tolerance must be finite numbers")]
    NonFinite,
    /// A method name that is not one of the solvers.
    #[error("ik: unknown method '{name}'; use analytic, ccd or fabrik")]
    UnknownMethod {
        /// The name given.
        name: String,
    },
}

/// The chain's bones, root first, ending at `tip`.
pub fn chain_bones(skeleton: &Skeleton, tip: usize, chain: usize) -> Result<Vec<usize>, IkError> {
    if tip >= skeleton.len() {
        return Err(IkError::NoSuchBone {
            tip,
            bone_count: skeleton.len(),
        });
    }
    let mut bones = vec![tip];
    while bones.len() < chain {
        let last = bones[bones.len() - 1];
        match skeleton.bones()[last].parent {
            Some(parent) => bones.push(usize::from(parent)),
            None => {
                return Err(IkError::ChainTooLong {
                    tip,
                    chain,
                    available: bones.len(),
                })
            }
        }
    }
    if chain == 0 {
        bones.clear();
    }
    bones.reverse();
    Ok(bones)
}

/// Solves `request` on `pose` (changed in place), keeping every bone within
/// `limits` (one entry per bone, `None` for a free joint).
///
/// # Panics
///
/// If `pose` or `limits` do not have one entry per bone.
pub fn solve_chain(
    skeleton: &Skeleton,
    pose: &mut [BoneTransform],
    limits: &[Option<JointLimit>],
    request: &IkRequest,
) -> Result<IkReport, IkError> {
    solve(skeleton, pose, limits, &vec![1.0; skeleton.len()], request)
}

/// [`solve_chain`] with stretchy joints (the bones note: "ggf. auch mit
/// dehnbaren Gelenken"): when the target lies beyond the chain's reach `R`
/// from its root, every bone of the chain is stretched along its own +Y by
/// the same `σ = min(max_stretch, 1.02 · d / R)` (`d` the distance to the
/// target; the extra 2 % keeps the chain off the straight, singular pose,
/// where the solvers crawl against their limits), written into `stretch` (one entry per bone; the chain's entries
/// are reset to 1 first), and then solved. Nearer targets are solved
/// unstretched.
///
/// # Panics
///
/// If `pose`, `limits` or `stretch` do not have one entry per bone.
pub fn solve_chain_stretchy(
    skeleton: &Skeleton,
    pose: &mut [BoneTransform],
    limits: &[Option<JointLimit>],
    stretch: &mut [f32],
    request: &IkRequest,
    max_stretch: f32,
) -> Result<IkReport, IkError> {
    assert_eq!(stretch.len(), skeleton.len(), "one stretch per bone");
    if !max_stretch.is_finite() || !request.target_model.is_finite() {
        return Err(IkError::NonFinite);
    }
    let bones = chain_bones(skeleton, request.tip, request.chain)?;
    for &bone in &bones {
        stretch[bone] = 1.0;
    }
    if max_stretch > 1.0 && !bones.is_empty() {
        let mut frames = vec![Mat4::IDENTITY; skeleton.len()];
        pose_to_model_stretched(skeleton, pose, stretch, &mut frames);
        let reach: f32 = bones
            .iter()
            .map(|&b| skeleton.bones()[b].model_length(&frames[b]))
            .sum();
        let root = frames[bones[0]].transform_point3(Vec3::ZERO);
        let distance = root.distance(request.target_model);
        if reach > 0.0 && distance > reach {
            let sigma = (1.02 * distance / reach).min(max_stretch);
            for &bone in &bones {
                stretch[bone] = sigma;
            }
        }
    }
    solve(skeleton, pose, limits, stretch, request)
}

/// Longer than a screen: the methods share the chain, its error and its report,
/// and hand over to one another (sweeps, then damped least squares, then
/// restarts out of a local minimum); the order of the hand-overs is the
/// algorithm, kept in one place.
fn solve(
    skeleton: &Skeleton,
    pose: &mut [BoneTransform],
    limits: &[Option<JointLimit>],
    stretch: &[f32],
    request: &IkRequest,
) -> Result<IkReport, IkError> {
    assert_eq!(pose.len(), skeleton.len(), "one transform per bone");
    assert_eq!(limits.len(), skeleton.len(), "one limit per bone");
    if !request.target_model.is_finite() || !request.tolerance.is_finite() {
        return Err(IkError::NonFinite);
    }
    let bones = chain_bones(skeleton, request.tip, request.chain)?;
    if request.method == IkMethod::Analytic && bones.len() != 2 {
        return Err(IkError::AnalyticNeedsTwo {
            chain: request.chain,
        });
    }
    let mut chain = Chain {
        skeleton,
        pose,
        limits,
        stretch,
        frames: vec![Mat4::IDENTITY; skeleton.len()],
    };
    chain.update();
    let target = request.target_model;
    let error = |chain: &Chain| chain.end(request.tip).distance(target);
    let report = |chain: &Chain, iterations| {
        let error = error(chain);
        IkReport {
            reached: error <= request.tolerance,
            error,
            iterations,
        }
    };
    if bones.is_empty() || error(&chain) <= request.tolerance {
        return Ok(report(&chain, 0));
    }
    match request.method {
        IkMethod::Analytic => {
            analytic(&mut chain, &bones, request);
            Ok(report(&chain, 1))
        }
        IkMethod::Ccd | IkMethod::Fabrik => {
            let mut before = error(&chain);
            let mut stalled = false;
            let mut finishing = false;
            // Model-space lengths: a joint's frame may carry scale.
            let reach: f32 = bones
                .iter()
                .map(|&b| skeleton.bones()[b].model_length(&chain.frames[b]))
                .sum();
            // Out of reach the sweeps' answer (the chain straight toward the
            // target) is the right one; least squares would only crawl
            // along the singular, stretched-out chain.
            let within_reach = chain.origin(bones[0]).distance(target) < reach;
            let mut best = (error(&chain), chain.pose.to_vec());
            let mut stuck = 0;
            let mut seed = 0x2545_f491_u32;
            for sweep in 1..=request.iterations {
                // Where the limits stop FABRIK's reaching passes (they move
                // joints where no limited rotation can put them), a CCD
                // sweep, which turns each joint within its limit, goes on.
                // Where the method's own sweeps crawl, damped least squares
                // steps finish (see `chain_dls`).
                let finished =
                    finishing && dls_step(&mut chain, &bones, request.tip, target, 0.05 * reach);
                if !finished && (request.method == IkMethod::Ccd || stalled) {
                    for &bone in bones.iter().rev() {
                        let tip = chain.end(request.tip);
                        chain.turn(bone, tip, target);
                    }
                } else if !finished {
                    fabrik_sweep(&mut chain, &bones, request.tip, target);
                }
                let after = error(&chain);
                if after <= request.tolerance {
                    return Ok(report(&chain, sweep));
                }
                if after < best.0 {
                    best = (after, chain.pose.to_vec());
                }
                // Stuck in a local minimum the limits make (a knee or elbow
                // against its stop while the target lies the other way):
                // no sweep or step gains 1 % three times running. Start
                // again from a random turn of every joint within its limit;
                // the best pose seen is what the solve returns.
                stuck = if after > 0.99 * before { stuck + 1 } else { 0 };
                if stuck >= 3 && within_reach && sweep < request.iterations {
                    shake(&mut chain, &bones, &mut seed);
                    stuck = 0;
                    finishing = false;
                    stalled = false;
                    before = error(&chain);
                    continue;
                }
                finishing = within_reach && (finished || (!finishing && after > 0.5 * before));
                stalled = request.method == IkMethod::Fabrik && after > 0.98 * before;
                // A chain lying straight along the line to a nearer target
                // cannot shorten by turning any one joint: bend it a little.
                // (Not at float precision's floor, where every solver stalls.)
                if after >= before * (1.0 - 1e-6)
                    && after > 1e-4 * reach
                    && sweep < request.iterations
                {
                    bend(&mut chain, &bones);
                }
                before = error(&chain);
            }
            if best.0 < error(&chain) {
                chain.pose.copy_from_slice(&best.1);
                chain.update();
            }
            Ok(report(&chain, request.iterations))
        }
    }
}

/// A pseudo-random number in `[-1, 1)` from `seed` (xorshift32), the same
/// sequence every solve, so that solves repeat exactly.
fn random(seed: &mut u32) -> f32 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 17;
    *seed ^= *seed << 5;
    (*seed >> 8) as f32 / (1u32 << 23) as f32 - 1.0
}

/// Turns every bone of the chain by a random rotation of up to 0.8 rad
/// about a random axis of its own frame, within its limits: a fresh start
/// out of a local minimum.
fn shake(chain: &mut Chain, bones: &[usize], seed: &mut u32) {
    for &bone in bones {
        let axis = Vec3::new(random(seed), random(seed), random(seed));
        let angle = 0.8 * random(seed);
        let turn = axis
            .try_normalize()
            .map_or(Quat::IDENTITY, |axis| Quat::from_axis_angle(axis, angle));
        let turned = (chain.pose[bone].rotation * turn).normalize();
        chain.pose[bone].rotation = chain.limits[bone].map_or(turned, |limit| limit.clamp(turned));
    }
    chain.update();
}

/// Turns every bone of the chain but the tip a little about its own X,
/// alternately one way and the other, within its limits: a way out of the
/// straight configurations where neither CCD nor FABRIK can make progress.
fn bend(chain: &mut Chain, bones: &[usize]) {
    for (k, &bone) in bones.iter().enumerate().take(bones.len().saturating_sub(1)) {
        let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
        let turned = chain.pose[bone].rotation * Quat::from_rotation_x(0.2 * sign);
        chain.pose[bone].rotation = chain.limits[bone].map_or(turned, |limit| limit.clamp(turned));
    }
    chain.update();
}

/// The joints of the chain: each bone's origin, then the tip's end.
fn joints(chain: &Chain, bones: &[usize], tip: usize) -> Vec<Vec3> {
    bones
        .iter()
        .map(|&bone| chain.origin(bone))
        .chain([chain.end(tip)])
        .collect()
}

/// One FABRIK sweep: the reaching passes on the joint positions, then each
/// bone, root first, turned toward its next joint's new place.
fn fabrik_sweep(chain: &mut Chain, bones: &[usize], tip: usize, target: Vec3) {
    let mut points = joints(chain, bones, tip);
    let lengths: Vec<f32> = points.windows(2).map(|w| w[0].distance(w[1])).collect();
    let root = points[0];
    let n = points.len() - 1;
    if root.distance(target) >= lengths.iter().sum::<f32>() {
        // Out of reach: a straight line toward the target.
        for k in 0..n {
            let toward = (target - points[k]).try_normalize().unwrap_or(Vec3::Y);
            points[k + 1] = points[k] + toward * lengths[k];
        }
    } else {
        points[n] = target;
        for k in (0..n).rev() {
            let back = (points[k] - points[k + 1])
                .try_normalize()
                .unwrap_or(Vec3::Y);
            points[k] = points[k + 1] + back * lengths[k];
        }
        points[0] = root;
        for k in 0..n {
            let on = (points[k + 1] - points[k])
                .try_normalize()
                .unwrap_or(Vec3::Y);
            points[k + 1] = points[k] + on * lengths[k];
        }
    }
    for (k, &bone) in bones.iter().enumerate() {
        let next = if k + 1 < bones.len() {
            chain.origin(bones[k + 1])
        } else {
            chain.end(tip)
        };
        chain.turn(bone, next, points[k + 1]);
    }
}

/// Both elbow solutions of the animation talk's formula; keeps the better.
fn analytic(chain: &mut Chain, bones: &[usize], request: &IkRequest) {
    let (upper, lower) = (bones[0], bones[1]);
    let start_pose = chain.pose.to_vec();
    let a_point = chain.origin(upper);
    let b_point = chain.origin(lower);
    let e_point = chain.end(lower);
    let target = request.target_model;
    let a = a_point.distance(b_point);
    let b = b_point.distance(e_point);
    let Some(toward) = (target - a_point).try_normalize() else {
        return;
    };
    if a < 1e-6 || b < 1e-6 {
        return;
    }
    let d = a_point
        .distance(target)
        .clamp((a - b).abs() + 1e-6, a + b - 1e-6);
    // cos α = (a² + d² − b²) / (2ad): the angle at A between the target
    // direction and the upper bone.
    let cos_alpha = ((a * a + d * d - b * b) / (2.0 * a * d)).clamp(-1.0, 1.0);
    let sin_alpha = (1.0 - cos_alpha * cos_alpha).sqrt();
    let bend = (b_point - a_point) - toward * (b_point - a_point).dot(toward);
    let side = bend
        .try_normalize()
        .or_else(|| request.fallback_normal.cross(toward).try_normalize())
        .unwrap_or_else(|| toward.any_orthonormal_vector());
    let mut best: Option<(f32, f32, Vec<BoneTransform>)> = None;
    for sign in [1.0_f32, -1.0] {
        chain.pose.copy_from_slice(&start_pose);
        chain.update();
        let joint = a_point + (toward * cos_alpha + side * sign * sin_alpha) * a;
        chain.turn(upper, b_point, joint);
        let tip = chain.end(lower);
        chain.turn(lower, tip, target);
        let error = chain.end(lower).distance(target);
        let moved = [upper, lower]
            .iter()
            .map(|&bone| {
                start_pose[bone]
                    .rotation
                    .angle_between(chain.pose[bone].rotation)
            })
            .sum::<f32>();
        // Reaching first; among solutions that reach, the nearer one.
        let reaches = error <= request.tolerance;
        let better = match &best {
            None => true,
            Some((best_error, best_moved, _)) => {
                let best_reaches = *best_error <= request.tolerance;
                match (reaches, best_reaches) {
                    (true, false) => true,
                    (false, true) => false,
                    (true, true) => moved < *best_moved,
                    (false, false) => error < *best_error,
                }
            }
        };
        if better {
            best = Some((error, moved, chain.pose.to_vec()));
        }
    }
    if let Some((_, _, pose)) = best {
        chain.pose.copy_from_slice(&pose);
        chain.update();
    }
}
