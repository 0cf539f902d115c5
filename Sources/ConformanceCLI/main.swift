print("conformance")
