"""Estimating: cards for a model the table lacks, from its shape, calibrated on the table.

Takes facts (the table, the models' shapes, the units' memory, a stored calibration) and a
model's shape (from the known-models data, a config.json, or the Hugging Face Hub); gives, per
framework, flavour, strategy and length the table covers, the fewest units that hold the
training state, with a range and the method's measured error. Pure: no Slack, no network (the
Hub is reached by the command line and the handlers, which hand the bytes in). May import facts.
"""
