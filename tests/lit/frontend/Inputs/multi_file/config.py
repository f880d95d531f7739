# Constants shared by the files of a program split over several modules.
ROWS = 1
COLS = 8
SCALE = 3.0
