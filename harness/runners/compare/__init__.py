"""Size and speed of two subjects side by side (the gate's compare stage)."""
