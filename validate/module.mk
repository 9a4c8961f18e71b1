TOOLS	+= dumpinfo
JSON_OBJ = $(B)/validate/json.o

$(B)/bin/dumpinfo: $(B)/validate/dumpinfo.o $(JSON_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(LDLIBS)
