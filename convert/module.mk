TOOLS	+= dumpconv

$(B)/bin/dumpconv: $(B)/convert/dumpconv.o $(SAVECORE_OBJ) $(TOOL_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(LDLIBS)
