//! ROC curves and what is read off them: the curve, AUC and scored AUC, the convex hull and its
//! iso-performance slopes, repaired concavities, interpolated classifiers, averaged curves,
//! partial AUC, multi-class AUC and coverage space.

pub mod averaging;
pub mod concavity;
pub mod coverage;
pub mod grid_average;
pub mod hull;
pub mod interpolation;
pub mod multiclass;
pub mod partial_auc;
pub mod roc;
