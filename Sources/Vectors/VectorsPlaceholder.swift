import Primitives
