# kexp plot; run `gnuplot test_rmse_vs_dataset.n.gp` here to redraw test_rmse_vs_dataset.n.svg
set terminal svg size 1000,642 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_vs_dataset.n.svg'
set title 'test RMSE against n_train: gaussian'
set xlabel 'n_train (training points)'
set ylabel 'test RMSE'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Points: one run each, so no bars.' at screen 0.01, screen 0.0218 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1000' 1000, '4000' 4000, '16000' 16000, '40000' 40000, '100000' 100000)
set logscale x
$line0 << EOD
1000 1.7017969464847085 1.7017969464847085 1.7017969464847085
4000 1.470414754290591 1.470414754290591 1.470414754290591
16000 2.0648932427953763 2.0648932427953763 2.0648932427953763
40000 3.2083863204025853 3.2083863204025853 3.2083863204025853
100000 3.8134604942845627 3.8134604942845627 3.8134604942845627
EOD
$line1 << EOD
1000 1.7013246964294264 1.7013246964294264 1.7013246964294264
4000 1.4316636654637582 1.4316636654637582 1.4316636654637582
16000 1.116246427316769 1.116246427316769 1.116246427316769
40000 1.0857257615627651 1.0857257615627651 1.0857257615627651
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'cg_ridge (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'kernel_ridge (dual)'
