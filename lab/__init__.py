"""The lab: training the readers' models and measuring the readers. Run from the project folder
(`python -m lab.train`, `python -m lab.train.measure`, `python -m lab.symbol_evaluate`); not installed with
the program, which never imports it."""
