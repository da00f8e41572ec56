//! Figures, each a function generic over the drawing backend.
