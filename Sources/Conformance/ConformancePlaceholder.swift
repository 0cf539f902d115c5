import Vectors
